"""The official Anthropic Python SDK against the Claude API's skills emulator, as a skills author uses it.

usage: claude_skills_client.py BASE_URL API_KEY SKILL_FOLDER
Uploads the folder with files_from_dir, adds a version, reads the newest, lists, then deletes; prints what it saw as
one JSON object (test/emulator/claude-skills-clients.test.ts asserts it).
"""
import json
import sys

import anthropic
from anthropic.lib import files_from_dir

base_url, api_key, folder = sys.argv[1:4]
client = anthropic.Anthropic(base_url=base_url, api_key=api_key, max_retries=0)
seen = {"sdk": anthropic.__version__}

skill = client.skills.create(files=files_from_dir(folder), display_name="py-skill")
seen["created"] = {"id": skill.id, "display_name": skill.display_name, "source": skill.source.type, "latest": skill.latest_version_id}
version = client.skills.versions.create(skill.id, files=files_from_dir(folder))
seen["version"] = {"id": version.id, "name": version.name, "skill_id": version.skill_id}
latest = client.skills.versions.retrieve("latest", skill_id=skill.id)
seen["latest"] = latest.id
seen["versions"] = [v.id for v in client.skills.versions.list(skill.id)]
seen["custom"] = sorted(s.display_name for s in client.skills.list(source="custom"))
try:
    client.skills.create(files=[("bad/README.md", b"no skill here")])
except anthropic.BadRequestError as e:
    seen["refused"] = {"status": e.status_code, "message": e.body["error"]["message"] if isinstance(e.body, dict) else str(e.body)}
deleted = client.skills.delete(skill.id)
seen["deleted"] = deleted.type
try:
    client.skills.retrieve(skill.id)
except anthropic.NotFoundError as e:
    seen["after_delete"] = e.status_code
print(json.dumps(seen))
