/** Request (and, when asked, response) validation against the bundled contract. */
export {
  describeValidationError,
  openApiValidation,
  type OpenApiValidationOptions,
  translateValidatorError,
} from './openapi-validator.js';
