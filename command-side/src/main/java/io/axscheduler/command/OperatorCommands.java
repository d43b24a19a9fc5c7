package io.axscheduler.command;

import io.axscheduler.api.Causes;
import io.axscheduler.api.problem.IllegalTransitionException;
import io.axscheduler.api.problem.NotFoundException;
import io.axscheduler.api.problem.RefusedOnCachedState;
import io.axscheduler.api.security.Caller;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Sends an operator's command to a job or a schedule with the actor in its metadata, and translates Axon's answers
 * into the API's: an unknown aggregate is a 404; losing to another writer every time is a 409.
 * <p>
 * Three ways to lose are retried on a fresh transaction, with the aggregate loaded again: another node appended the
 * same sequence number first (the event store's key), the command was refused on the state this node had cached,
 * which another node may have moved on ({@link RefusedOnCachedState}), or the database chose this transaction as a
 * deadlock's victim.
 * The last is ordinary: the fire scan and the claim scan lock a read-model row and then append, while a command
 * appends and then its projection updates that row.
 */
@Component
public class OperatorCommands {

    static final int ATTEMPTS_ON_CONCURRENT_CHANGE = 3;
    private static final int MYSQL_DEADLOCK = 1213;
    private static final int MYSQL_LOCK_WAIT_TIMEOUT = 1205;
    private static final Logger log = LoggerFactory.getLogger(OperatorCommands.class);
    /** Operators' single commands wait in one of these lines by their aggregate's id (fair: none starves). */
    private static final ReentrantLock[] LINES = new ReentrantLock[256];

    static {
        for (int i = 0; i < LINES.length; i++) LINES[i] = new ReentrantLock(true);
    }

    /** How long an operator's command waits for the commands before it on its line; then 409. */
    private static final long LINE_WAIT_MS = 20_000;

    private final CommandGateway commands;
    private final TransactionTemplate transaction;

    OperatorCommands(CommandGateway commands, TransactionTemplate transaction) {
        this.commands = commands;
        this.transaction = transaction;
    }

    /**
     * One command on its own transaction. Commands to one aggregate wait in line here, before their transaction
     * takes a connection: 25 parallel cancels of one job would otherwise hold 25 connections while waiting for the
     * job's in-memory lock, and leave none to the scanner.
     */
    public <R> R send(String kind, String id, Object command, Caller actor) {
        return send(kind, id, command, actor, Map.of());
    }

    /** {@link #send(String, String, Object, Caller)} with {@code metadata} beside the actor's. */
    public <R> R send(String kind, String id, Object command, Caller actor, Map<String, ?> metadata) {
        ReentrantLock line = LINES[Math.floorMod(id.hashCode(), LINES.length)];
        try {
            if (!line.tryLock(LINE_WAIT_MS, TimeUnit.MILLISECONDS))
                throw new IllegalTransitionException(
                        kind + " " + id + " is busy with other operators' commands; try again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalTransitionException(kind + " " + id + ": interrupted while waiting for other commands");
        }
        try {
            return retried(kind + " " + id, () -> sendOnce(kind, id, command, actor, metadata));
        } finally {
            line.unlock();
        }
    }

    /**
     * Several {@link #sendOnce} calls in one transaction, all landing or none (a batch; a manual fire and its job).
     * A race lost by any of them rolls all back and runs the whole work again.
     */
    public <R> R inOneTransaction(String what, Supplier<R> work) {
        return retried(what, () -> {
            try {
                return transaction.execute(tx -> work.get());
            } catch (RaceLost e) {
                throw e;
            } catch (RuntimeException e) {
                // work in one unit of work appends at its end, and any transaction can lose a lock at its commit
                throw lostRace(what, e);
            }
        });
    }

    /** Meant inside {@link #inOneTransaction}: a lost race aborts the transaction, which is then run again. */
    public <R> R sendOnce(String kind, String id, Object command, Caller actor) {
        return sendOnce(kind, id, command, actor, Map.of());
    }

    /** {@link #sendOnce(String, String, Object, Caller)} with {@code metadata} beside the actor's. */
    public <R> R sendOnce(String kind, String id, Object command, Caller actor, Map<String, ?> metadata) {
        try {
            return commands.sendAndWait(GenericCommandMessage.asCommandMessage(command)
                    .andMetaData(Caller.metadataOf(actor))
                    .andMetaData(metadata));
        } catch (AggregateNotFoundException e) {
            throw new NotFoundException(kind, id);
        } catch (RuntimeException e) {
            throw lostRace(kind + " " + id, e);
        }
    }

    /** {@code e} as a {@link RaceLost} when it is one of the three ways to lose a race, else {@code e} itself. */
    private static RuntimeException lostRace(String what, RuntimeException e) {
        if (e instanceof RefusedOnCachedState) {
            // no race as such: the cache may be behind another node's change, so the store decides
            return new RaceLost(what + " was refused on this node's cached state: " + e.getMessage(), false);
        }
        if (e instanceof ConcurrencyException) {
            return new RaceLost(what + " changed under this command: " + e.getMessage(), true);
        }
        if (lostALock(e)) {
            return new RaceLost(
                    what + " met another writer's lock: "
                            + NestedExceptionUtils.getMostSpecificCause(e).getMessage(),
                    true);
        }
        return e;
    }

    private static <R> R retried(String what, Supplier<R> attempt) {
        RaceLost last = null;
        for (int i = 1; i <= ATTEMPTS_ON_CONCURRENT_CHANGE; i++) {
            try {
                return attempt.get();
            } catch (RaceLost e) {
                last = e;
                if (e.race)
                    log.info(
                            "{}: attempt {} of {} lost a race, {}",
                            what,
                            i,
                            ATTEMPTS_ON_CONCURRENT_CHANGE,
                            e.getMessage());
                else log.debug("{}: decided again on the stored events, {}", what, e.getMessage());
            }
        }
        throw new IllegalTransitionException(what + " kept changing under this command; last: " + last.getMessage());
    }

    /** A deadlock victim or a lock wait that timed out, however Spring or Axon wrapped the driver's exception. */
    static boolean lostALock(Throwable e) {
        return Causes.any(
                e,
                t -> t instanceof PessimisticLockingFailureException
                        || t instanceof SQLTransactionRollbackException
                        || t instanceof SQLException sql
                                && (sql.getErrorCode() == MYSQL_DEADLOCK
                                        || sql.getErrorCode() == MYSQL_LOCK_WAIT_TIMEOUT));
    }

    /** A 409 if it ever escapes a retry loop; inside one, the signal to run again. */
    private static final class RaceLost extends IllegalTransitionException {
        /** Another writer's change or lock; else only a refusal on the cache, which the store may not repeat. */
        final boolean race;

        RaceLost(String message, boolean race) {
            super(message);
            this.race = race;
        }
    }
}
