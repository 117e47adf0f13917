/**
 * How files are read: the service reads commas, and the header main writes in place of the file's
 * is comma-separated too. Blank lines hold no row.
 */
export const CSV_PARSE_OPTIONS = { delimiter: ',', skipEmptyLines: true } as const;
