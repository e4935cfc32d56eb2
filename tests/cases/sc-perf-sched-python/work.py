import queue, threading, time, subprocess
q = queue.Queue()
def producer():
    for i in range(12):
        time.sleep(0.003)
        q.put(i)
    q.put(None)
def consumer():
    while q.get() is not None:
        sum(range(2000))
ts = [threading.Thread(target=producer), threading.Thread(target=consumer)]
for t in ts: t.start()
subprocess.run("dd if=/dev/zero bs=64k count=40 2>/dev/null | gzip -1 | cat > /dev/null", shell=True)
for t in ts: t.join()
