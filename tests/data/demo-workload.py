import json, re, random
def fib(n): return n if n < 2 else fib(n-1) + fib(n-2)
def churn():
    d = [{"k": random.random(), "s": str(i) * 5} for i in range(20000)]
    s = json.dumps(d); json.loads(s)
    re.findall(r"\d+\.\d+", s)
    sorted(d, key=lambda x: x["k"])
for i in range(40):
    fib(22); churn()
