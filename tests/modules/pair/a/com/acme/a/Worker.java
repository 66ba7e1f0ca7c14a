package com.acme.a;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import javax.swing.SwingUtilities;

/** Runs the tasks it is given on a background executor, or on the UI thread. */
public class Worker {
  private static final Executor EXECUTOR = Executors.newCachedThreadPool();

  public static void inBackground(Runnable task) {
    EXECUTOR.execute(task);
  }

  public static void onUiThread(Runnable task) {
    SwingUtilities.invokeLater(task);
  }
}
