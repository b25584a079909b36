/** Request (and, when asked, response) validation against the bundled contract. */
export {
  describeValidationError,
  openApiValidation,
  type OpenApiValidationOptions,
  translateValidatorError,
  withHeadOperations,
} from './openapi-validator.js';
export {
  findMalformedString,
  isWellFormedDeep,
  requireWellFormedStrings,
} from './well-formed-strings.js';
export { createServablePetCheck, type ServablePetCheck } from './servable-pets.js';
export { integerQueryParameters, requireIntegerLiterals } from './integer-parameters.js';
export { operationIdOf, pathParamsOf } from './resolved-operation.js';
