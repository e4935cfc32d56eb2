// names: C++ whose hot functions have names to demangle, for run.sh: a
// class template's const method, a lambda, an operator, a function in an
// anonymous namespace; and a libm call through the PLT ("cos@plt").
// Frame pointers, no inlining of the named functions.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace ns {
template <class T> struct Box {
	T v;
	__attribute__((noinline)) T spin(long n) const
	{
		T s = 0;
		for (long i = 0; i < n; i++)
			s += (T)std::cos((double)i + v);
		return s;
	}
	__attribute__((noinline)) Box operator+(const Box &o) const
	{
		return Box{ spin(200000) + o.spin(200000) };
	}
};
}

namespace {
__attribute__((noinline)) double hidden(const std::vector<int> &v)
{
	double s = 0;
	for (int x : v)
		s += ns::Box<double>{ (double)x }.spin(100000);
	return s;
}
}

int
main(int argc, char **argv)
{
	long rounds = argc > 1 ? std::atol(argv[1]) : 20;
	std::vector<int> v(4, 1);
	double s = 0;
	auto lambda = [&](int k) __attribute__((noinline)) {
		return ns::Box<float>{ (float)k }.spin(300000);
	};
	for (long r = 0; r < rounds; r++) {
		s += hidden(v);
		s += (ns::Box<double>{ 1 } + ns::Box<double>{ 2 }).v;
		s += lambda((int)r);
	}
	std::printf("%g\n", s);
	return 0;
}
