import java.util.*;
import java.util.concurrent.*;

public class Throws {
    static int parse(String s) { return Integer.parseInt(s); }
    static Object lookup(Map<String, Object> m, String k) { return m.get(k).toString(); }
    static void io(int i) throws Exception {
        try { parse("x" + i); }
        catch (NumberFormatException e) { throw new IllegalStateException("bad record " + i, e); }
    }
    public static void main(String[] a) throws Exception {
        Random r = new Random(42);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> fs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            final int n = i;
            fs.add(pool.submit(() -> {
                try {
                    switch (r.nextInt(3)) {
                    case 0: parse("n" + n); break;
                    case 1: lookup(new HashMap<>(), "k"); break;
                    default: io(n);
                    }
                } catch (Exception e) { e.printStackTrace(System.out); }
                return null;
            }));
        }
        for (Future<?> f : fs) f.get();
        pool.shutdown();
        Object lock = new Object();
        Thread t = new Thread(() -> { synchronized (lock) { try { lock.wait(200); } catch (InterruptedException e) {} } }, "waiter");
        t.start(); Thread.sleep(50);
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet())
            if (e.getKey() == t) {
                System.out.println("\"waiter\" state " + e.getKey().getState());
                for (StackTraceElement s : e.getValue()) System.out.println("\tat " + s);
            }
        t.join();
    }
}
