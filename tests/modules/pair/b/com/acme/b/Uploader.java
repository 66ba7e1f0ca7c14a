package com.acme.b;

import com.acme.a.Worker;

/**
 * Gives an upstream helper a lambda that the helper hands to an executor: the lambda's write runs
 * on a background thread and races with the plain read.
 */
public class Uploader {
  private int uploaded;

  public void upload() {
    Worker.inBackground(() -> uploaded++);
  }

  public int uploaded() {
    return uploaded;
  }
}
