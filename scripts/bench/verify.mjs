// Before measuring: does every target answer each scenario, and alike?
import { isDeepStrictEqual } from 'node:util';
import { BenchError } from './errors.mjs';
import { requestFor } from './measure.mjs';
import { expectedStatuses } from './scenarios.mjs';

/**
 * One request per scenario and target before measuring: each answers with an expected status,
 * and the parts of our server's answer the scenario names as `same`, so every target does the
 * same work (and the seed matches the baselines' data).
 */
export async function verify(running, scenarios, apiKey) {
  for (const scenario of scenarios) {
    let reference;
    for (const target of running) {
      const { method, headers, body } = requestFor(scenario, apiKey);
      const response = await fetch(`http://127.0.0.1:${target.port}${scenario.path}`, {
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
      if (scenario.same.length === 0) continue;
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
