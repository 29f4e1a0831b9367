package dev.baton.kotlin.example

import dev.baton.LockClient
import dev.baton.kotlin.withLock
import kotlin.time.Duration.Companion.seconds

/** Where balances are kept: a table, a service. It refuses a write with a smaller fencing token than it has seen. */
interface Ledger {
  suspend fun balance(account: String): Long

  suspend fun write(account: String, balance: Long, fencingToken: Long)
}

/** Books a payment under the account's lock, however many coroutines and instances of the service book at once. */
suspend fun book(client: LockClient, ledger: Ledger, account: String, cents: Long): Long =
    client.lock("account:$account").withLock(5.seconds) { lease ->
      val balance = ledger.balance(account) + cents
      ledger.write(account, balance, lease.fencingToken())
      balance
    }
