package com.acme.deep;

public class Box {
  private final Cell cell = new Cell();

  public void put(int amount) {
    cell.add(amount);
  }
}
