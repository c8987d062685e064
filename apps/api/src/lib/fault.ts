import { type FaultBody, type FaultName, faults } from '@soundid/contracts';

/** A fault of the catalogue, thrown by services and turned into the envelope by the error handler. */
export class Fault extends Error {
  readonly status: number;
  readonly type: number;
  constructor(
    readonly faultName: FaultName,
    readonly variables: Record<string, string> = {},
    userText?: string,
  ) {
    super(userText ?? faults[faultName].message);
    this.name = 'Fault';
    this.status = faults[faultName].status;
    this.type = faults[faultName].type;
  }

  toBody(): FaultBody {
    return {
      ExceptionName: this.faultName,
      ExceptionType: this.type,
      ExceptionCode: this.status,
      ExceptionUserText: this.message,
      ExceptionVariables: Object.entries(this.variables).map(([Key, Value]) => ({ Key, Value })),
    };
  }
}
