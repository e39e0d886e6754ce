/**
 * The clock the runtime stamps records, deadlines and questions with: the one seam every module that reads the
 * time takes (`Date` by default, a test passes its own). It sits beneath them all, so a module that only needs
 * the time imports nothing above it (issue 45: no import cycles).
 */
export interface Clock {
  now(): number;
}
