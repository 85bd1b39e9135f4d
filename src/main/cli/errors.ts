/// A command that failed for a reason written for the person at the terminal (a file that cannot be read, a
/// port in use): printed as it is, exit status 1.
export class CommandError extends Error {}

/// A mistake in the command line: printed with the usage, exit status 2.
export class UsageError extends Error {}
