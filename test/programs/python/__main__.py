"""DNS records and a skill from Python: pulumi_ops is generated from schema.json, and the engine serves it with
the resource plugin pulumi-resource-ops (credentials from the stack config keys ops:edgeApiToken, ..., as in TypeScript)."""
import pulumi
import pulumi_ops as ops

config = pulumi.Config()
address = config.get("address") or "203.0.113.10"

zone = ops.edge.get_zone(name="example.com")

www = ops.edge.DnsRecord("www", zone_id=zone.id, type="A", name="www", content=address, ttl=300)
ops.edge.DnsRecord("api", zone_name="example.com", type="CNAME", name="api", content="www.example.com", proxied=True)
skill = ops.skills.Skill(
    "oven-care",
    slug="oven-care",
    source="../../../examples/ai-host/skills/oven-care/SKILL.md",
    category="ops",
    version=config.get("skillVersion") or "1.0.0",
)
found = ops.skills.search_skills_output(q="oven")

pulumi.export("zoneId", zone.id)
pulumi.export("hostname", www.hostname)
pulumi.export("skillName", skill.name)
pulumi.export("skillsFound", found.skills.apply(lambda skills: [s.slug for s in skills]))
