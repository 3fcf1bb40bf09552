# The records of a zone file as dnspython reads them, in parseZoneFile's shape: name relative to the zone ("@" for
# its apex), type, TTL, content (host names absolute without the trailing dot, TXT strings joined), priority (MX).
# Usage: python read.py <file> <origin>
import json, sys
import dns.zone, dns.rdatatype

path, origin = sys.argv[1], sys.argv[2]
zone = dns.zone.from_file(path, origin=origin, relativize=False, check_origin=False)
apex = zone.origin
out = []
for name, ttl, rdata in zone.iterate_rdatas():
    rtype = dns.rdatatype.to_text(rdata.rdtype)
    rel = "@" if name == apex else name.relativize(apex).to_text()
    host = lambda n: n.to_text().rstrip(".").lower()
    if rtype == "MX":
        out.append({"type": rtype, "name": rel, "ttl": ttl, "content": host(rdata.exchange), "priority": rdata.preference})
    elif rtype in ("CNAME", "NS"):
        out.append({"type": rtype, "name": rel, "ttl": ttl, "content": host(rdata.target)})
    elif rtype == "TXT":
        out.append({"type": rtype, "name": rel, "ttl": ttl, "content": b"".join(rdata.strings).decode("latin-1")})
    elif rtype in ("A", "AAAA"):
        out.append({"type": rtype, "name": rel, "ttl": ttl, "content": rdata.address})
    else:
        out.append({"type": rtype, "name": rel, "ttl": ttl})
print(json.dumps(out))
