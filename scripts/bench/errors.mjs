/** A failure with a message meant for the person running the benchmark (no stack trace). */
export class BenchError extends Error {}
