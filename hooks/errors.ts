// The hooks/ layer may not import daemon/, so its errors live here. Codes are
// stable (GOBBY_ERR_<AREA>_<WHAT>) so the CLI and tests can match on them.

export const INSTALL_ERROR_CODES = {
  invalidJson: 'GOBBY_ERR_INSTALL_INVALID_JSON',
  invalidSettings: 'GOBBY_ERR_INSTALL_INVALID_SETTINGS',
} as const;

export type InstallErrorCode = (typeof INSTALL_ERROR_CODES)[keyof typeof INSTALL_ERROR_CODES];

export class GobbyError extends Error {
  constructor(
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'GobbyError';
  }
}
