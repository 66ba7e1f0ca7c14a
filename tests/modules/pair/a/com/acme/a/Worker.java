package com.acme.a;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/** Runs the tasks it is given on a background executor. */
public class Worker {
  private static final Executor EXECUTOR = Executors.newCachedThreadPool();

  public static void inBackground(Runnable task) {
    EXECUTOR.execute(task);
  }
}
