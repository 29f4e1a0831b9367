package dev.baton.virtualthreads;

/** The virtual-thread contract on an in-memory store ({@code memory://}). */
class MemoryVirtualThreadTest extends VirtualThreadContract {
  @Override
  String uri() {
    return "memory://virtual-threads";
  }
}
