import type { Rejection } from '@roundkeeper/engine';

/** A refusal with the HTTP status it is answered with (a socket's close code is 4000 + it). */
export class HubError extends Error {
  constructor(
    readonly status: number,
    readonly rejection: Rejection,
  ) {
    super(rejection.message);
  }
}
