import type { OperationId, ResponseBody, ResponseStatus } from '@petstore/types';
import type { Request, RequestHandler, Response } from 'express';
import { operationIdOf } from '../validation/index.js';

/** The status of an operation's success answer: its documented 2xx. */
type SuccessStatus<Id extends OperationId> = Extract<ResponseStatus<Id>, 200 | 201 | 202 | 204>;

/**
 * The response of operation `Id`, typed from the contract: `res.json` accepts only its
 * documented success body, so a handler returning a field the spec lacks does not compile.
 */
export type OperationResponse<Id extends OperationId> = Response<
  ResponseBody<Id, SuccessStatus<Id>>
>;

/** The handler of one operation; its errors (thrown or rejected) go to the error handler. */
export type OperationHandler<Id extends OperationId> = (
  req: Request,
  res: OperationResponse<Id>,
) => Promise<void>;

/**
 * A handler for every operation of the contract, by operationId: an operation added to the
 * description does not compile until it has one, and a handler cannot be named after an
 * operation that does not exist.
 */
export type OperationHandlers = { [Id in OperationId]: OperationHandler<Id> };

/**
 * The operations as one layer: the validator, which ran before, resolved the request's path and
 * method to an operation of the contract (`operationIdOf`); this calls that operation's handler.
 * No second routing: the paths and methods are the contract's, matched once. A request the
 * validator resolved to no operation goes on (to the 404).
 */
export function dispatchOperations(handlers: OperationHandlers): RequestHandler {
  const byId = new Map<string, (req: Request, res: Response) => Promise<void>>(
    Object.entries(handlers),
  );
  return (req, res, next) => {
    const operationId = operationIdOf(req);
    const handler = operationId === undefined ? undefined : byId.get(operationId);
    if (handler === undefined) {
      next();
      return;
    }
    return handler(req, res);
  };
}
