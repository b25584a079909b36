// Adds a pet, then lists every available pet page by page, with the typed client.
//
//   PETSTORE_URL=http://127.0.0.1:8080/v1 PETSTORE_API_KEY=psk_… node examples/list-and-create.mjs
//
// Plain JavaScript (ESM): no build step, no TypeScript needed. Retries on 429 (waiting
// Retry-After), rate-limit headers and deprecation warnings come with the client.
import { createPetstoreClient, RetryBudgetExceededError } from '@petstore/client';

const baseUrl = process.env.PETSTORE_URL ?? 'http://127.0.0.1:8080/v1';
const apiKey = process.env.PETSTORE_API_KEY;
if (!apiKey) {
  console.error(
    'Set PETSTORE_API_KEY (create one with: npm run --silent keys -- create --plan free)',
  );
  process.exit(2);
}

const client = createPetstoreClient({ baseUrl, apiKey });

try {
  const created = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
  if (created.error) {
    // The documented Error body: code, message, status.
    console.error(
      `createPet failed: ${created.error.status} ${created.error.code}: ${created.error.message}`,
    );
    process.exit(1);
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
  if (error instanceof RetryBudgetExceededError && error.retryAt) {
    console.error(`Rate limited: try again after ${error.retryAt.toISOString()}`);
    process.exit(1);
  }
  throw error;
}
