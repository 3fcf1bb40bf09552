/**
 * Read-only functions of the page-management service. Reads issued together travel in one batch call.
 *
 *     const page = ops.pages.getPage({ pageId });
 *     export const fans = pulumi.output(page).fan_count;
 */
import { withStackConfig } from "../config";
import * as pages from "../../provider/pages/functions";

/** The page's fields (`name`, `about`, `category`, `link`, `phone`, `website`, `fan_count`). */
export const getPage = withStackConfig(pages.getPage);
/** Insight values per metric and day, with optional `since`/`until` dates (YYYY-MM-DD). */
export const getPageInsights = withStackConfig(pages.getPageInsights);
/** The page's published posts. */
export const getPosts = withStackConfig(pages.getPosts);
/** The app's rate-limit usage (calls made, limit, percent used). */
export const getRateLimitInfo = withStackConfig(pages.getRateLimitInfo);
