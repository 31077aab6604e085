import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The transaction a piece of work runs in, found through the async context: a query made
 * anywhere below `database.transaction(…)` joins it without the handle being passed down.
 * `open` turns false when the transaction ends, so work it started and left running does
 * not try to use a connection that is gone.
 */
export type TransactionScope<Handle> = {
  readonly owner: object;
  readonly handle: Handle;
  open: boolean;
  savepoints: number;
};

const scopes = new AsyncLocalStorage<TransactionScope<unknown>>();

/** The open transaction of `owner` this code runs in, if any. */
export function currentScope<Handle>(owner: object): TransactionScope<Handle> | undefined {
  const scope = scopes.getStore();
  return scope && scope.owner === owner && scope.open ? (scope as TransactionScope<Handle>) : undefined;
}

export function runInScope<Handle, T>(scope: TransactionScope<Handle>, work: () => Promise<T>): Promise<T> {
  return scopes.run(scope as TransactionScope<unknown>, work);
}

/** Nested transactions are savepoints on both engines. */
export async function withSavepoint<T>(
  scope: TransactionScope<unknown>,
  exec: (sql: string) => Promise<unknown>,
  work: () => Promise<T>,
): Promise<T> {
  scope.savepoints += 1;
  const name = `nested_${scope.savepoints}`;
  await exec(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    await exec(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await exec(`ROLLBACK TO SAVEPOINT ${name}`);
    await exec(`RELEASE SAVEPOINT ${name}`);
    throw error;
  }
}
