package main

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// stripped is s without plan modifiers or validators, at any depth. Types,
// defaults and the required/optional/computed/sensitive flags stay: they
// shape what Terraform and the framework do per object.
func stripped(s schema.Schema) schema.Schema {
	s.Attributes = strippedAttributes(s.Attributes)
	s.Blocks = strippedBlocks(s.Blocks)
	return s
}

func strippedAttributes(in map[string]schema.Attribute) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(in))
	for name, a := range in {
		out[name] = strippedAttribute(a)
	}
	return out
}

func strippedAttribute(a schema.Attribute) schema.Attribute {
	switch a := a.(type) {
	case schema.StringAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		return a
	case schema.BoolAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		return a
	case schema.Int64Attribute:
		a.PlanModifiers, a.Validators = nil, nil
		return a
	case schema.Float64Attribute:
		a.PlanModifiers, a.Validators = nil, nil
		return a
	case schema.MapAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		return a
	case schema.ListAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		return a
	case schema.SetAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		return a
	case schema.ObjectAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		return a
	case schema.SingleNestedAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		a.Attributes = strippedAttributes(a.Attributes)
		return a
	case schema.ListNestedAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		a.NestedObject = strippedObject(a.NestedObject)
		return a
	case schema.MapNestedAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		a.NestedObject = strippedObject(a.NestedObject)
		return a
	case schema.SetNestedAttribute:
		a.PlanModifiers, a.Validators = nil, nil
		a.NestedObject = strippedObject(a.NestedObject)
		return a
	default:
		return a
	}
}

func strippedObject(o schema.NestedAttributeObject) schema.NestedAttributeObject {
	o.PlanModifiers, o.Validators = nil, nil
	o.Attributes = strippedAttributes(o.Attributes)
	return o
}

func strippedBlocks(in map[string]schema.Block) map[string]schema.Block {
	out := make(map[string]schema.Block, len(in))
	for name, b := range in {
		switch b := b.(type) {
		case schema.SingleNestedBlock:
			b.PlanModifiers, b.Validators = nil, nil
			b.Attributes = strippedAttributes(b.Attributes)
			b.Blocks = strippedBlocks(b.Blocks)
			out[name] = b
		case schema.ListNestedBlock:
			b.PlanModifiers, b.Validators = nil, nil
			b.NestedObject = strippedBlockObject(b.NestedObject)
			out[name] = b
		case schema.SetNestedBlock:
			b.PlanModifiers, b.Validators = nil, nil
			b.NestedObject = strippedBlockObject(b.NestedObject)
			out[name] = b
		default:
			out[name] = b
		}
	}
	return out
}

func strippedBlockObject(o schema.NestedBlockObject) schema.NestedBlockObject {
	o.PlanModifiers, o.Validators = nil, nil
	o.Attributes = strippedAttributes(o.Attributes)
	o.Blocks = strippedBlocks(o.Blocks)
	return o
}
