// The body of every error answer: `{ error: { code, message } }`, the code from the catalog.
import { z } from 'zod';
import { ERROR_CATALOG, type ErrorCode } from '../../hooks/errors.js';

const codes = Object.keys(ERROR_CATALOG) as [ErrorCode, ...ErrorCode[]];

export const errorAnswer = z.object({
  error: z.object({ code: z.enum(codes), message: z.string() }),
});
