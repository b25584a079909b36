import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bundleJsonPath, bundleYamlPath, description } from './description.js';

describe('the bundled description', () => {
  it('is valid OpenAPI 3.1 against the official schema', async () => {
    const result = await new Validator().validate(bundleJsonPath);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(description.openapi).toBe('3.1.0');
  });

  it('says the same in its YAML and JSON forms', () => {
    expect(parse(readFileSync(bundleYamlPath, 'utf8'))).toEqual(description);
  });

  it('is at version 1.0.0 with contact and licence', () => {
    expect(description.info.version).toBe('1.0.0');
    expect(description.info.contact.email).toMatch(/@/);
    expect(description.info.license.identifier).toBe('MIT');
  });

  it('names the production and staging servers, both under /v1', () => {
    expect(description.servers).toEqual([
      { url: 'https://api.petstore.example/v1', description: 'Production' },
      { url: 'https://staging.api.petstore.example/v1', description: 'Staging' },
    ]);
  });

  it('documents what the specification leaves open', () => {
    const text: string = description.info.description;
    for (const topic of [
      '## Authentication',
      '## Rate limits',
      '### Exceeding the limit',
      '### Temporary ban',
      '## Pagination',
      '## Errors',
      '## Versioning and deprecation',
      '## Open questions',
      'GET /store/orders',
      'experimental',
      'exponential backoff',
    ]) {
      expect(text).toContain(topic);
    }
    for (const [plan, perMinute, perDay] of [
      ['Free', '60', '1000'],
      ['Pro', '300', '10000'],
      ['Business', '1000', '100000'],
      ['Enterprise', 'custom', 'custom'],
    ]) {
      expect(text).toMatch(new RegExp(`\\| ${plan} +\\| ${perMinute} +\\| ${perDay} +\\|`));
    }
  });
});
