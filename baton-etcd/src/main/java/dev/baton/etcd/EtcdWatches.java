package dev.baton.etcd;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.api.WatchCancelRequest;
import io.etcd.jetcd.api.WatchCreateRequest;
import io.etcd.jetcd.api.WatchGrpc;
import io.etcd.jetcd.api.WatchRequest;
import io.etcd.jetcd.api.WatchResponse;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deletions a client's waiters wait for, all watched on one etcd watch stream, as etcd's own client
 * does: stopping a watch sends a cancel request for its id, so etcd drops the watcher at once. etcd numbers
 * the watches of a stream in the order it creates them and confirms each creation in that order, which is
 * how a confirmation finds its watch. A watch wakes its waiter once, on the first deletion or when etcd
 * cancels it; when the stream fails, every waiter is woken to look again, and the next watch opens a new one.
 */
final class EtcdWatches {
  private static final Logger log = LoggerFactory.getLogger(EtcdWatches.class);

  private final WatchGrpc.WatchStub stub;
  private final Object lock = new Object();
  private final Deque<Watch> unconfirmed = new ArrayDeque<>();
  private final Map<Long, Watch> confirmed = new HashMap<>();
  private Stream stream;
  private boolean closed;

  EtcdWatches(WatchGrpc.WatchStub stub) {
    this.stub = stub;
  }

  /** Watches the deletion of {@code key} from {@code fromRevision} on; the returned handle stops watching. */
  Watching onDeletion(ByteSequence key, long fromRevision, Runnable wakeUp) {
    return watch(WatchCreateRequest.newBuilder()
        .setKey(ByteString.copyFrom(key.getBytes()))
        .setStartRevision(fromRevision)
        .addFilters(WatchCreateRequest.FilterType.NOPUT).build(), wakeUp);
  }

  /**
   * Watches every change (put or delete) of the keys from {@code from} up to, not including, {@code end}, from
   * {@code fromRevision} on, waking once at the first; the returned handle stops watching.
   */
  Watching onChangeIn(ByteSequence from, ByteSequence end, long fromRevision, Runnable wakeUp) {
    return watch(WatchCreateRequest.newBuilder()
        .setKey(ByteString.copyFrom(from.getBytes()))
        .setRangeEnd(ByteString.copyFrom(end.getBytes()))
        .setStartRevision(fromRevision).build(), wakeUp);
  }

  private Watching watch(WatchCreateRequest create, Runnable wakeUp) {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("The etcd client is closed");
      }
      if (stream == null) {
        stream = new Stream();
        stub.watch(stream);
      }
      Watch watch = new Watch(stream, wakeUp);
      unconfirmed.add(watch);
      stream.send(WatchRequest.newBuilder().setCreateRequest(create).build());
      return watch;
    }
  }

  /**
   * Watches the deletion of each of {@code keys} from {@code fromRevision} on, waking the waiter at the first; the
   * returned handle stops them all.
   */
  Watching onDeletionOfAny(List<ByteSequence> keys, long fromRevision, Runnable wakeUp) {
    List<Watching> each = keys.stream().map(key -> onDeletion(key, fromRevision, wakeUp)).toList();
    return () -> each.forEach(Watching::stop);
  }

  void close() {
    synchronized (lock) {
      closed = true;
      unconfirmed.clear();
      confirmed.clear();
      if (stream != null) {
        stream.requests.cancel("The Baton client is closing", null);
        stream = null;
      }
    }
  }

  private void confirmed(Stream on, WatchResponse response) {
    synchronized (lock) {
      Watch watch = on == stream ? unconfirmed.poll() : null;
      if (watch == null) {
        return;
      }
      if (response.getCanceled()) {
        // Waking the waiter would only have it ask again at once; it looks again when its wait runs out.
        watch.finish();
        log.warn("etcd refused to watch a lock's queue ({}); waiters fall back to looking once per session timeout",
            response.getCancelReason());
      } else {
        watch.id = response.getWatchId();
        if (watch.stopped) {
          watch.cancelAtEtcd();
        } else {
          confirmed.put(watch.id, watch);
        }
      }
    }
  }

  private void fired(Stream on, long id, boolean cancelledByEtcd) {
    Runnable wakeUp = null;
    synchronized (lock) {
      Watch watch = on == stream ? confirmed.remove(id) : null;
      if (watch != null) {
        wakeUp = watch.finish();
        if (!cancelledByEtcd) {
          watch.cancelAtEtcd();
        }
      }
    }
    run(wakeUp);
  }

  private void ended(Stream on) {
    List<Runnable> wakeUps = new ArrayList<>();
    synchronized (lock) {
      if (on != stream) {
        return;
      }
      stream = null;
      unconfirmed.forEach(watch -> wakeUps.add(watch.finish()));
      confirmed.values().forEach(watch -> wakeUps.add(watch.finish()));
      unconfirmed.clear();
      confirmed.clear();
    }
    wakeUps.forEach(EtcdWatches::run);
  }

  private static void run(Runnable wakeUp) {
    if (wakeUp != null) {
      wakeUp.run();
    }
  }

  /** A handle on one watch. */
  interface Watching {
    /** Stops watching; the waiter is not woken by this watch any more. */
    void stop();
  }

  /** One watch: unconfirmed until etcd gives it an id, then confirmed until it fires or is stopped. */
  private final class Watch implements Watching {
    private final Stream on;
    private final Runnable wakeUp;
    private long id = -1;
    private boolean stopped;

    Watch(Stream on, Runnable wakeUp) {
      this.on = on;
      this.wakeUp = wakeUp;
    }

    @Override
    public void stop() {
      synchronized (lock) {
        if (!stopped) {
          stopped = true;
          if (id >= 0 && confirmed.remove(id, this)) {
            cancelAtEtcd();
          } // else etcd has not confirmed it yet: cancelled when it does
        }
      }
    }

    /** Marks this watch done and returns whom to wake, if anyone still waits on it. */
    Runnable finish() {
      boolean waiting = !stopped;
      stopped = true;
      return waiting ? wakeUp : null;
    }

    void cancelAtEtcd() {
      if (on == stream) {
        on.send(WatchRequest.newBuilder().setCancelRequest(WatchCancelRequest.newBuilder().setWatchId(id)).build());
      }
    }
  }

  /** One watch stream: what we send on it and what etcd answers. */
  private final class Stream implements ClientResponseObserver<WatchRequest, WatchResponse> {
    private ClientCallStreamObserver<WatchRequest> requests;

    @Override
    public void beforeStart(ClientCallStreamObserver<WatchRequest> requestStream) {
      requests = requestStream;
    }

    void send(WatchRequest request) {
      requests.onNext(request);
    }

    @Override
    public void onNext(WatchResponse response) {
      if (response.getCreated()) {
        confirmed(this, response);
      } else if (response.getCanceled()) {
        fired(this, response.getWatchId(), true);
      } else if (response.getEventsCount() > 0) {
        fired(this, response.getWatchId(), false);
      }
    }

    @Override
    public void onError(Throwable failure) {
      ended(this);
    }

    @Override
    public void onCompleted() {
      ended(this);
    }
  }
}
