"""The page-management and short-post emulators driven by clients nobody here wrote: the official facebook-business SDK
(pages), python-facebook-api (`pyfacebook`, both services) and pythreads (the short-post service), each unchanged but
for its base address. Prints one JSON object of what each call answered; a call the emulator refuses raises.

usage: social_clients.py PAGES_URL POSTS_URL PAGE_ID PAGE_TOKEN APP_ID APP_SECRET BUSINESS_ID USER POSTS_TOKEN POSTS_USER_ID
"""
import asyncio
import json
import os
import sys
import time
from datetime import datetime, timedelta, timezone

pages_url, posts_url, page_id, page_token, app_id, app_secret, business_id, user, posts_token, posts_user = sys.argv[1:11]
out = {}

# --- facebook-business (official): page read, feed, photo and scheduled posts, assigned users, subscribed apps, insights, batch
from facebook_business.api import FacebookAdsApi, FacebookSession
from facebook_business.adobjects.page import Page

FacebookSession.GRAPH = pages_url  # the only change: the base address
api = FacebookAdsApi.init(app_id, app_secret, page_token, api_version="v26.0")  # the app secret: every call carries appsecret_proof
page = Page(page_id)
info = page.api_get(fields=["name", "followers_count", "business"])
out["fb_page"] = [info["name"], info["business"]["id"]]
feed = page.create_feed(params={"message": "From the official SDK"})
photo = page.create_photo(params={"url": "https://media.example/sdk.jpg", "caption": "A photo"})
scheduled = page.create_feed(params={"message": "Later", "published": False, "scheduled_publish_time": int(time.time()) + 2 * 86400})
out["fb_posts"] = [bool(feed["id"]), bool(photo.get("post_id") or photo["id"]), bool(scheduled["id"])]
page.create_assigned_user(params={"user": int(user), "tasks": ["MODERATE", "ANALYZE"]})
assigned = page.get_assigned_users(params={"business": business_id}, fields=["id", "name", "tasks"])
out["fb_assigned"] = [[a["id"], sorted(a["tasks"])] for a in assigned if a["id"] == user]
page.create_subscribed_app(params={"subscribed_fields": ["feed", "messages"]})
out["fb_subscribed"] = [sorted(a["subscribed_fields"]) for a in page.get_subscribed_apps()]
insights = page.get_insights(params={"metric": ["page_follows", "page_media_view"], "period": "day"})
out["fb_insights"] = sorted(i["name"] for i in insights)
batch = api.new_batch()
answers = []
page.api_get(fields=["name"], batch=batch, success=lambda r: answers.append(r.json()["name"]))
Page(feed["id"]).api_get(fields=["message"], batch=batch, success=lambda r: answers.append(r.json()["message"]))
batch.execute()
out["fb_batch"] = sorted(answers)
page.delete_assigned_users(params={"user": int(user)})
# A scheduled post moved in place (the SDK's PagePost update takes scheduled_publish_time), periods, a post's insights.
from facebook_business.adobjects.pagepost import PagePost
later = int(time.time()) + 3 * 86400
PagePost(scheduled["id"]).api_update(params={"scheduled_publish_time": later})
moved = PagePost(scheduled["id"]).api_get(fields=["scheduled_publish_time", "is_published"])
out["fb_rescheduled"] = [moved["scheduled_publish_time"] == later, moved["is_published"]]
# The page's own profile (Page.api_update: about, website, emails, hours), read back as the service keeps it.
page.api_update(params={"about": "From the official SDK", "website": "https://sdk.bakery.example", "emails": ["sdk@bakery.example"], "hours": {"tue_1_open": "08:00", "tue_1_close": "17:00"}})
profile = page.api_get(fields=["about", "website", "emails", "hours"])
out["fb_profile"] = [profile["about"], profile["website"], profile["emails"], profile["hours"]]
weekly = page.get_insights(params={"metric": ["page_follows"], "period": "week", "since": "2026-11-01", "until": "2026-11-14"})
out["fb_weekly"] = [[i["period"], len(i["values"])] for i in weekly]
post_stats = PagePost(feed["id"]).get_insights(params={"metric": ["post_clicks", "post_reactions_by_type_total"], "period": "lifetime"})
out["fb_post_insights"] = sorted(i["name"] for i in post_stats)

# --- python-facebook-api (pyfacebook): the page service, and the short-post publishing flow and publishing limit
from pyfacebook import GraphAPI, ThreadsGraphAPI

fb = GraphAPI(app_id=app_id, app_secret=app_secret, access_token=page_token, version="v26.0", base_url=pages_url + "/", sleep_on_rate_limit=False)
out["pyfb_page"] = fb.get_object(page_id, fields="id,name")["name"]
out["pyfb_posts"] = len(fb.get_connection(page_id, "posts", fields="id,message")["data"])
th = ThreadsGraphAPI(access_token=posts_token, version="v1.0", base_url=posts_url + "/", sleep_on_rate_limit=False)
out["pyfb_profile"] = th.get_object("me", fields="id,username,threads_biography")["username"]
container = th.post_object("me", "threads", data={"media_type": "TEXT", "text": "From pyfacebook"})
for _ in range(20):
    if th.get_object(container["id"], fields="status")["status"] == "FINISHED":
        break
    time.sleep(0.2)
published = th.post_object("me", "threads_publish", data={"creation_id": container["id"]})
out["pyfb_published"] = th.get_object(published["id"], fields="id,media_type,text")["media_type"]
# A text post with a poll, a topic tag and a link card, read back with those fields.
polled = th.post_object("me", "threads", data={"media_type": "TEXT", "text": "Which loaf?", "poll_attachment": json.dumps({"option_a": "Rye", "option_b": "Spelt"}), "topic_tag": "Bread", "reply_control": "followers_only"})
polled_post = th.post_object("me", "threads_publish", data={"creation_id": polled["id"]})
read_back = th.get_object(polled_post["id"], fields="id,poll_attachment,topic_tag,reply_audience")
out["pyfb_poll"] = [read_back["poll_attachment"]["option_b"], read_back["topic_tag"], read_back["reply_audience"]]
limit = th.get_connection("me", "threads_publishing_limit", fields="quota_usage,config")["data"][0]
out["pyfb_limit"] = [limit["quota_usage"], limit["config"]["quota_total"]]


async def finished(api_, container_id):
    """The container's status once FINISHED (pythreads' carousel takes the items' statuses)."""
    for _ in range(50):
        status = await api_.container_status(container_id)
        if status.status.value == "FINISHED":
            return status
        await asyncio.sleep(0.2)
    raise RuntimeError(f"container {container_id} never finished")


# --- pythreads: profile, publishing limit, an image post's container, its status and publish, a carousel, the listing
async def threads_flow():
    os.environ.setdefault("CI", "1")  # pythreads asks for OAuth certificate paths unless in CI
    import pythreads.threads as threads_module
    from pythreads.api import API, Media, MediaType, ReplyControl
    from pythreads.credentials import Credentials

    threads_module.GRAPH_API_BASE_URL = posts_url + "/v1.0/"  # the only change: the base address
    creds = Credentials(user_id=posts_user, scopes=["threads_basic", "threads_content_publish"], short_lived=False, access_token=posts_token, expiration=datetime.now(timezone.utc) + timedelta(days=60))
    async with API(creds) as api_:
        account = await api_.account()
        limit_ = await api_.publishing_limit()
        container_id = await api_.create_container(text="From pythreads", media=Media(type=MediaType.IMAGE, url="https://media.example/pythreads.jpg"))
        for _ in range(50):
            status = await api_.container_status(container_id)
            if status.status.value == "FINISHED":
                break
            await asyncio.sleep(0.2)
        published_ = await api_.publish_container(container_id)
        # A carousel of two images: each item made as one (is_carousel_item), then the carousel, then its publish.
        items = []
        for n in (1, 2):
            item_id = await api_.create_container(media=Media(type=MediaType.IMAGE, url=f"https://media.example/carousel-{n}.jpg"), is_carousel_item=True)
            items.append(await finished(api_, item_id))
        carousel_id = await api_.create_carousel_container(containers=items, text="A carousel from pythreads", reply_control=ReplyControl.MENTIONED_ONLY)
        await finished(api_, carousel_id)
        carousel_post = await api_.publish_container(carousel_id)
        listing = await api_.threads(limit=10)
        # A thread: a reply to the image post, and a reply to that reply (reply_to_id), read back as its replies and
        # its whole conversation.
        first = await api_.create_container(text="A reply from pythreads", reply_to_id=published_)
        first_id = await api_.publish_container(first)
        second = await api_.create_container(text="And its reply", reply_to_id=first_id)
        second_id = await api_.publish_container(second)
        replies = await api_.replies(published_)
        conversation = await api_.conversation(published_)
        return {
            "pythreads_replies": [r["id"] == first_id for r in replies["data"]],
            "pythreads_conversation": [r["id"] for r in conversation["data"]] == [second_id, first_id],  # newest first (reverse=true)
            "pythreads_profile": account["username"],
            "pythreads_limit": limit_["data"][0]["config"]["quota_total"],
            "pythreads_status": status.status.value,
            "pythreads_published": bool(published_),
            "pythreads_listed": sorted(t["media_type"] for t in listing["data"]),
            "pythreads_carousel": bool(carousel_post),
        }


out.update(asyncio.run(threads_flow()))
print(json.dumps(out))
