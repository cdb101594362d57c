/**
 * A start an operator can mend (a data file the embedded stub must not use, say): its message is
 * the one line to print, in Russian, and the command exits without a stack trace. The stub's
 * DataFileError is one, so the host's command line knows it without importing the stub.
 */
export class StartError extends Error {}
