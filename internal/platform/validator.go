package platform

// TemplateSpecValidator is offered (Extensions.TemplateSpecs) by platforms that can tell at plan
// time that they cannot build a template spec (e.g. a Dockerfile
// instruction E2B's build steps cannot express). The template resource calls
// it from ModifyPlan; the error names what is wrong (the line, the setting).
type TemplateSpecValidator interface {
	ValidateTemplateSpec(spec TemplateSpec) error
}
