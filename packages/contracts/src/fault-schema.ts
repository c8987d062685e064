import { z } from 'zod';

/** The Fault of the response envelope (errors.ts has the catalogue and the `FaultBody` type). */
export const faultVariableSchema = z.object({ Key: z.string(), Value: z.string() });
export const faultSchema = z.object({
  ExceptionName: z.string(),
  ExceptionType: z.number().int(),
  ExceptionCode: z.number().int(),
  ExceptionUserText: z.string(),
  ExceptionVariables: z.array(faultVariableSchema),
});
