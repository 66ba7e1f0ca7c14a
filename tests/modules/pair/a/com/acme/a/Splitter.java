package com.acme.a;

/**
 * Splits work between two threads and joins both before returning: the threads run within the
 * call, at once, and both add to the left cell.
 */
public class Splitter {
  public static void fillBoth(Cells cells) throws InterruptedException {
    Thread first = new Thread(() -> cells.left += 1);
    Thread second = new Thread(() -> {
      cells.left += 2;
      cells.right = 2;
    });
    first.start();
    second.start();
    first.join();
    second.join();
  }
}
