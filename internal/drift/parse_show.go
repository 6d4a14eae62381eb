package drift

import "fmt"

// showValues reads the "values" object of terraform show -json.
func (p *parser) showValues() error {
	if err := p.setFormat(FormatShowJSON); err != nil {
		return err
	}
	ok, err := p.container('{', "\"values\"")
	if err != nil || !ok {
		return err
	}
	return p.lx.object("\"values\"", 1, func(k string) error {
		if k == "root_module" {
			p.sawRootModule = true
			return p.showModule("values.root_module", 2)
		}
		return p.lx.skip("values."+k, 1)
	})
}

// showModule reads a module: its resources one at a time, and its child
// modules, recursively.
func (p *parser) showModule(what string, depth int) error {
	ok, err := p.container('{', what)
	if err != nil || !ok {
		return err
	}
	if depth > maxDepth {
		return p.lx.syntax(what, "nested too deeply")
	}
	var moduleAddr string
	return p.lx.object(what, depth, func(k string) error {
		switch k {
		case "address":
			var err error
			moduleAddr, err = p.optString(what, k)
			return err
		case "resources":
			ok, err := p.container('[', what+".resources")
			if err != nil || !ok {
				return err
			}
			return p.lx.array(what+".resources", depth+1, func(i int) error {
				return p.showResource(fmt.Sprintf("%s.resources[%d]", what, i), moduleAddr, depth+2)
			})
		case "child_modules":
			ok, err := p.container('[', what+".child_modules")
			if err != nil || !ok {
				return err
			}
			return p.lx.array(what+".child_modules", depth+1, func(i int) error {
				return p.showModule(fmt.Sprintf("%s.child_modules[%d]", what, i), depth+2)
			})
		}
		return p.lx.skip(what+"."+k, depth)
	})
}

// showResource reads one resource instance of terraform show -json.
func (p *parser) showResource(what, moduleAddr string, depth int) error {
	ok, err := p.container('{', what)
	if err != nil {
		return err
	}
	if !ok {
		return inputErr("not a state file: %s is null, want an object", what)
	}
	var address, mode, typ, name, index string
	var values captured
	err = p.lx.object(what, depth, func(k string) error {
		var err error
		switch k {
		case "address":
			address, err = p.optString(what, k)
		case "mode":
			mode, err = p.optString(what, k)
		case "type":
			typ, err = p.optString(what, k)
		case "name":
			name, err = p.optString(what, k)
		case "index":
			index, err = p.indexKey(what, k)
		case "values":
			values, err = p.attributes(what, depth+1)
		default:
			err = p.lx.skip(what, depth)
		}
		return err
	})
	if err != nil || !p.relevant(mode, typ) {
		return err
	}
	if address == "" {
		// Terraform always writes address; rebuild it if a tool did not.
		address = typ + "." + name + index
		if moduleAddr != "" {
			address = moduleAddr + "." + address
		}
	}
	return p.emitInstance(address, typ, &values)
}
