package faultmatrix_test

// targets are the platforms the matrix runs on.
func targets() []target {
	return []target{e2bTarget{}, daytonaTarget{}, flyTarget{}, modalTarget{}}
}
