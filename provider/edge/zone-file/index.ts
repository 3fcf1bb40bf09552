/** Zone files (RFC 1035 master files): read into a record set's records, and written from them. */
export { parseZoneFile, ZoneFileError, type ZoneFile, type ZoneFileRecord } from "./read";
export { toZoneFile } from "./write";
