package com.acme.a;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import javax.swing.SwingUtilities;

/**
 * Runs the tasks it is given on a background executor, on the UI thread, or during the call
 * (without a lock, or holding the class's monitor).
 */
public class Worker {
  private static final Executor EXECUTOR = Executors.newCachedThreadPool();

  public static void inBackground(Runnable task) {
    EXECUTOR.execute(task);
  }

  public static void onUiThread(Runnable task) {
    SwingUtilities.invokeLater(task);
  }

  public static void timed(Runnable task) {
    long start = System.nanoTime();
    task.run();
    System.out.println(System.nanoTime() - start);
  }

  public static void locked(Runnable task) {
    synchronized (Worker.class) {
      task.run();
    }
  }
}
