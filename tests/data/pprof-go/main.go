// The workload of tests/record-pprof.sh: a CPU profile and a heap profile
// of a small program written by runtime/pprof, with inlined calls (sort.Ints
// is inlined into sortWork, hashWork into main) and a label on hashWork's
// samples (stackcollapse --labels).
package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
)

var sink [][]byte

func sortWork(n int) int {
	s := make([]int, n)
	for i := range s {
		s[i] = (i * 7919) % n
	}
	sort.Ints(s)
	return s[n/2]
}

func hashWork(n int) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < n; i++ {
		h ^= uint64(i)
		h *= 1099511628211
	}
	return h
}

func allocWork(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 1024+i%4096))
		if len(sink) > 2000 {
			sink = sink[:0]
		}
	}
	_ = strings.Repeat("x", n)
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: prog cpu.pb.gz heap.pb.gz")
		os.Exit(2)
	}
	runtime.MemProfileRate = 4096
	cpu, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		panic(err)
	}
	total := 0
	for round := 0; round < 40; round++ {
		total += sortWork(200000)
		pprof.Do(context.Background(), pprof.Labels("work", "hash"),
			func(context.Context) { total += int(hashWork(3000000) & 1) })
		allocWork(2000)
	}
	pprof.StopCPUProfile()
	cpu.Close()
	heap, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(heap); err != nil {
		panic(err)
	}
	heap.Close()
	fmt.Println(total)
}
