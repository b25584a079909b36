import { describe, expect, it } from 'vitest';
import { openApiValidation } from '../../src/validation/index.js';

describe('openApiValidation', () => {
  it('runs the validator’s route resolution and request validation only', () => {
    const steps = openApiValidation({ validateResponses: false }).map((step) => step.name);
    expect(steps).toEqual(['metadataMiddleware', 'requestMiddleware']);
  });

  it('adds its response validation when asked', () => {
    const steps = openApiValidation({ validateResponses: true }).map((step) => step.name);
    expect(steps).toEqual(['metadataMiddleware', 'requestMiddleware', 'responseMiddleware']);
  });
});
