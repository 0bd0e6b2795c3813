package axpy

import "golang.org/x/sys/cpu"

func setAVXRows(on bool) { useAVXRows = on && cpu.X86.HasAVX }
