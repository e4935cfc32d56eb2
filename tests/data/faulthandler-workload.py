import faulthandler, sys, threading, time
def fib(n): return n if n < 2 else fib(n-1) + fib(n-2)
def spin(stop):
    while not stop.is_set(): fib(15)
def sleeper(stop):
    while not stop.is_set(): time.sleep(0.01)
stop = threading.Event()
ts = [threading.Thread(target=spin, args=(stop,)), threading.Thread(target=sleeper, args=(stop,))]
for t in ts: t.start()
faulthandler.dump_traceback_later(0.05, repeat=True, file=sys.stdout)
t0 = time.time()
while time.time() - t0 < 1.5: fib(18)
faulthandler.cancel_dump_traceback_later()
stop.set()
for t in ts: t.join()
faulthandler.dump_traceback(file=sys.stdout, all_threads=False)
