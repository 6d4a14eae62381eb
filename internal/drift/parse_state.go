package drift

import "fmt"

// v4Resources reads the state file's resources array one instance at a time.
func (p *parser) v4Resources() error {
	if err := p.setFormat(FormatState); err != nil {
		return err
	}
	ok, err := p.container('[', "\"resources\"")
	if err != nil || !ok {
		return err
	}
	return p.lx.array("\"resources\"", 1, p.v4Resource)
}

type pendingInstance struct {
	index string
	attrs captured
}

// v4Resource reads one resource. Terraform writes module, mode, type and
// name before instances, so each instance is judged as soon as it is read
// and dropped; if a file puts instances first, their few captured
// attributes are held until the header is complete.
func (p *parser) v4Resource(i int) error {
	what := fmt.Sprintf("resources[%d]", i)
	ok, err := p.container('{', what)
	if err != nil {
		return err
	}
	if !ok {
		return inputErr("not a state file: %s is null, want an object", what)
	}
	var module, mode, typ, name string
	var pending []pendingInstance
	headerDone := func() bool { return typ != "" && name != "" && mode != "" }
	address := func() string {
		a := typ + "." + name
		if module != "" {
			a = module + "." + a
		}
		return a
	}
	err = p.lx.object(what, 2, func(k string) error {
		var err error
		switch k {
		case "module":
			module, err = p.optString(what, k)
		case "mode":
			mode, err = p.optString(what, k)
		case "type":
			typ, err = p.optString(what, k)
		case "name":
			name, err = p.optString(what, k)
		case "instances":
			if headerDone() && !p.relevant(mode, typ) {
				return p.lx.skip(what, 2)
			}
			ok, err := p.container('[', what+".instances")
			if err != nil || !ok {
				return err
			}
			return p.lx.array(what+".instances", 3, func(j int) error {
				inst, err := p.v4Instance(fmt.Sprintf("%s.instances[%d]", what, j))
				if err != nil {
					return err
				}
				if !headerDone() {
					pending = append(pending, inst)
					return nil
				}
				return p.emitInstance(address()+inst.index, typ, &inst.attrs)
			})
		default:
			err = p.lx.skip(what, 2)
		}
		return err
	})
	if err != nil || !p.relevant(mode, typ) {
		return err
	}
	for _, inst := range pending {
		if err := p.emitInstance(address()+inst.index, typ, &inst.attrs); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) v4Instance(what string) (pendingInstance, error) {
	var inst pendingInstance
	ok, err := p.container('{', what)
	if err != nil {
		return inst, err
	}
	if !ok {
		return inst, inputErr("not a state file: %s is null, want an object", what)
	}
	err = p.lx.object(what, 4, func(k string) error {
		var err error
		switch k {
		case "index_key":
			inst.index, err = p.indexKey(what, k)
		case "attributes":
			inst.attrs, err = p.attributes(what, 5)
		default:
			err = p.lx.skip(what, 4)
		}
		return err
	})
	return inst, err
}

func (p *parser) emitInstance(address, typ string, c *captured) error {
	if !p.relevant("managed", typ) {
		return nil
	}
	in, err := c.instance(address, typ)
	if err != nil {
		return err
	}
	return p.emit(in)
}
