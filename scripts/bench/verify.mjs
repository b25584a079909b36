// Before measuring: does every target answer each scenario, and alike?
import { isDeepStrictEqual } from 'node:util';
import { cursorAfter } from './dataset.mjs';
import { BenchError } from './errors.mjs';
import { requestFor } from './measure.mjs';
import { expectedStatuses, OUR_SERVERS, REFERENCE, scenarioFor } from './scenarios.mjs';

/**
 * Before measuring: that each of our servers' stores holds no pet after its seed's last
 * (`target.pets`), so the round starts from the seeded data whatever an earlier round created
 * (run.mjs copies the stores for each round); then one request per scenario and target: each
 * answers with an expected status, and the parts of our server's answer the scenario names as
 * `same`, so every target does the same work (and the seed matches the baselines' data). The
 * reference (our server on another data set) is only checked for its status.
 */
export async function verify(running, scenarios) {
  for (const target of running.filter(({ name }) => OUR_SERVERS.has(name))) {
    await holdsItsSeedOnly(target);
  }
  for (const scenario of scenarios) {
    let reference;
    for (const target of running) {
      const asked = scenarioFor(scenario, target.name);
      const { method, headers, body } = requestFor(asked, target.apiKey);
      const response = await fetch(`http://127.0.0.1:${target.port}${asked.path}`, {
        method,
        headers,
        body,
      });
      const text = await response.text();
      if (!expectedStatuses(scenario, target.name).includes(response.status)) {
        throw new BenchError(
          `${target.name} answered ${scenario.title} with ${response.status}: ${text.slice(0, 500)}`,
        );
      }
      if (scenario.same.length === 0 || target.name === REFERENCE) continue;
      const full = { body: JSON.parse(text), link: response.headers.get('link') };
      const answer = Object.fromEntries(scenario.same.map((part) => [part, full[part]]));
      if (target.name === 'ours') reference = answer;
      else if (reference && !isDeepStrictEqual(answer, reference)) {
        throw new BenchError(
          `${target.name} answered ${scenario.title} unlike our server:\n` +
            `${JSON.stringify(answer).slice(0, 500)}\nours:\n${JSON.stringify(reference).slice(0, 500)}`,
        );
      }
    }
  }
}

async function holdsItsSeedOnly({ name, port, apiKey, pets }) {
  const response = await fetch(
    `http://127.0.0.1:${port}/v1/pets?limit=1&cursor=${cursorAfter(pets)}`,
    { headers: { authorization: `Bearer ${apiKey}` } },
  );
  const text = await response.text();
  if (response.status !== 200 || text !== '[]') {
    throw new BenchError(
      `${name}'s store should hold its ${pets} seeded pets only, but the page after them is ` +
        `${response.status} ${text.slice(0, 200)}`,
    );
  }
}
