package app

// builtin lists the scenarios compiled in. Until the scenarios package
// provides them, there are none and the app offers free play only.
func builtin() Catalog { return Catalog{} }
