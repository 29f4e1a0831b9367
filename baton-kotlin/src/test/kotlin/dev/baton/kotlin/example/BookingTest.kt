package dev.baton.kotlin.example

import dev.baton.memory.MemoryLockClient
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.ConcurrentHashMap
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.joinAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.runTest
import kotlinx.coroutines.withContext
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** The example of docs/kotlin.md, which is [book] and [Ledger] word for word, run. */
class BookingTest {

  @Test
  fun bookingsOfTwoInstancesAddUp() = runTest {
    val ledger = SlowLedger()
    MemoryLockClient.connect("memory://booking").use { first ->
      MemoryLockClient.connect("memory://booking").use { second ->
        withContext(Dispatchers.Default) {
          List(100) { i -> launch { book(if (i % 2 == 0) first else second, ledger, "alice", 100) } }.joinAll()
        }
      }
    }
    assertThat(ledger.balance("alice")).isEqualTo(10_000)
  }

  @Test
  fun theDocumentShowsThisCode() {
    val document = Files.readString(Path.of("../docs/kotlin.md"))
    val example = document.substringAfter("```kotlin\n").substringBefore("```")
    val source = Files.readString(Path.of("src/test/kotlin/dev/baton/kotlin/example/Booking.kt"))
    assertThat(example).isEqualTo(source.substringAfter("package dev.baton.kotlin.example\n\n"))
  }

  /** A ledger that takes its time between a read and a write, as a remote one does, and checks fencing tokens. */
  private class SlowLedger : Ledger {
    private val balances = ConcurrentHashMap<String, Long>()
    private val tokens = ConcurrentHashMap<String, Long>()

    override suspend fun balance(account: String): Long {
      delay(1)
      return balances[account] ?: 0
    }

    override suspend fun write(account: String, balance: Long, fencingToken: Long) {
      val seen = tokens.merge(account, fencingToken, ::maxOf)
      check(seen == fencingToken) { "a write with token $fencingToken after token $seen" }
      balances[account] = balance
    }
  }
}
