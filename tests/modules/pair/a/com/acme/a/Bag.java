package com.acme.a;

import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/** A collection that locks itself, except in `remove` when built `careless`. */
public class Bag<E> extends AbstractCollection<E> {
  private final ReentrantLock lock = new ReentrantLock();
  private final List<E> items = new ArrayList<>();
  private final boolean careless;

  public Bag(boolean careless) {
    this.careless = careless;
  }

  @Override
  public boolean add(E e) {
    lock.lock();
    try {
      return items.add(e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean remove(Object o) {
    if (careless) {
      return items.remove(o);
    }
    lock.lock();
    try {
      return items.remove(o);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int size() {
    lock.lock();
    try {
      return items.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Iterator<E> iterator() {
    throw new UnsupportedOperationException();
  }
}
