// Adds a pet, then lists every available pet page by page, with the typed client.
//
//   PETSTORE_URL=http://127.0.0.1:8080/v1 PETSTORE_API_KEY=psk_… node examples/list-and-create.mjs
//
// Plain JavaScript (ESM): no build step, no TypeScript needed. Retries (429 after Retry-After;
// lost answers, even of the create, thanks to its Idempotency-Key), rate-limit headers and
// deprecation warnings come with the client. Any failure is one line on stderr and exit code 1.
import { createPetstoreClient, RetryBudgetExceededError } from '@petstore/client';

const baseUrl = process.env.PETSTORE_URL ?? 'http://127.0.0.1:8080/v1';
const apiKey = process.env.PETSTORE_API_KEY;
if (!apiKey) {
  console.error(
    'Set PETSTORE_API_KEY (create one with: npm run --silent keys -- create --plan free)',
  );
  process.exit(2);
}

/** Prints one line (no stack trace) and exits 1. */
function fail(message) {
  console.error(message);
  process.exit(1);
}

/** The innermost cause of an error: for a refused connection, `connect ECONNREFUSED …`. */
function rootCause(error) {
  let cause = error;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  return cause instanceof Error ? cause.message : String(cause);
}

/** One line saying what went wrong, for errors the client throws (and any other). */
function explain(error) {
  if (!(error instanceof Error)) return `Unexpected failure: ${String(error)}`;
  if (error instanceof RetryBudgetExceededError && error.status === 429 && error.retryAt) {
    return `Rate limited: try again after ${error.retryAt.toISOString()}`;
  }
  const noAnswer =
    ['NetworkError', 'TimeoutError'].includes(error.name) ||
    (error instanceof RetryBudgetExceededError && error.status === undefined);
  if (noAnswer) {
    return `Cannot reach the Pet Store API at ${baseUrl} (${rootCause(error)}): ${error.message}`;
  }
  return error.message;
}

try {
  // A malformed key or address is refused here (the key is never repeated in the message).
  const client = createPetstoreClient({ baseUrl, apiKey });
  const created = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
  if (created.error) {
    // The documented Error body: code, message, status.
    const { status, code, message } = created.error;
    const hint = status === 401 ? ' (check PETSTORE_API_KEY)' : '';
    fail(`createPet failed: ${status} ${code}: ${message}${hint}`);
  }
  console.log(`created pet ${created.data.id} (${created.data.name})`);

  const { remaining, limit, reset } = created.rateLimit ?? {};
  console.log(`rate limit: ${remaining}/${limit} left until ${reset?.toISOString()}`);

  let count = 0;
  for await (const pet of client.listAllPets({ status: 'available', limit: 50 })) {
    count++;
    console.log(`- ${pet.id} ${pet.name}`);
  }
  console.log(`${count} available pet(s)`);
} catch (error) {
  fail(explain(error));
}
