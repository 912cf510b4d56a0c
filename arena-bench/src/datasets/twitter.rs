//! json-benchmark's `twitter.json`: 100 statuses from the search API, string-heavy (much of it
//! non-ASCII, written with `\u` escapes), many optional fields, retweets nesting a status.
//!
//! The model holds every field that carries data; fields that are `null` or empty throughout
//! the file (`geo`, `coordinates`, `place`, `contributors`, `symbols`) are left out, so JSON
//! skips them and the binary formats never see them. Optional fields are `#[serde(default)]`
//! (some statuses lack them): serde_derive reads a missing `Option` as `None` on its own,
//! multitude's derive only when told.

use super::Dataset;

crate::model! {
    /// The search result: one document.
    struct Twitter {
        statuses: [Status],
        search_metadata: SearchMetadata,
    }

    /// A tweet.
    struct Status {
        metadata: Metadata,
        created_at: str,
        id: u64,
        id_str: str,
        text: str,
        source: str,
        truncated: bool,
        #[serde(default)]
        in_reply_to_status_id: (opt u64),
        #[serde(default)]
        in_reply_to_status_id_str: (opt str),
        #[serde(default)]
        in_reply_to_user_id: (opt u64),
        #[serde(default)]
        in_reply_to_user_id_str: (opt str),
        #[serde(default)]
        in_reply_to_screen_name: (opt str),
        user: User,
        #[serde(default)]
        retweeted_status: (opt (boxed Status)),
        retweet_count: u32,
        favorite_count: u32,
        entities: StatusEntities,
        favorited: bool,
        retweeted: bool,
        #[serde(default)]
        possibly_sensitive: (opt bool),
        lang: str,
    }

    /// Search metadata of a status.
    struct Metadata {
        result_type: str,
        iso_language_code: str,
    }

    /// The author of a status.
    struct User {
        id: u64,
        id_str: str,
        name: str,
        screen_name: str,
        location: str,
        description: str,
        #[serde(default)]
        url: (opt str),
        entities: UserEntities,
        protected: bool,
        followers_count: u32,
        friends_count: u32,
        listed_count: u32,
        created_at: str,
        favourites_count: u32,
        #[serde(default)]
        utc_offset: (opt i32),
        #[serde(default)]
        time_zone: (opt str),
        geo_enabled: bool,
        verified: bool,
        statuses_count: u32,
        lang: str,
        contributors_enabled: bool,
        is_translator: bool,
        is_translation_enabled: bool,
        profile_background_color: str,
        profile_background_image_url: str,
        profile_background_image_url_https: str,
        profile_background_tile: bool,
        profile_image_url: str,
        profile_image_url_https: str,
        #[serde(default)]
        profile_banner_url: (opt str),
        profile_link_color: str,
        profile_sidebar_border_color: str,
        profile_sidebar_fill_color: str,
        profile_text_color: str,
        profile_use_background_image: bool,
        default_profile: bool,
        default_profile_image: bool,
        following: bool,
        follow_request_sent: bool,
        notifications: bool,
    }

    /// URLs in a user's profile.
    struct UserEntities {
        #[serde(default)]
        url: (opt UserUrls),
        description: UserUrls,
    }

    /// A list of URLs.
    struct UserUrls {
        urls: [Url],
    }

    /// A URL and where it appears.
    struct Url {
        url: str,
        expanded_url: str,
        display_url: str,
        indices: [u32],
    }

    /// What a status links to.
    struct StatusEntities {
        hashtags: [Hashtag],
        urls: [Url],
        user_mentions: [UserMention],
        #[serde(default)]
        media: (opt [Media]),
    }

    /// A hashtag.
    struct Hashtag {
        text: str,
        indices: [u32],
    }

    /// A mention of a user.
    struct UserMention {
        screen_name: str,
        name: str,
        id: u64,
        id_str: str,
        indices: [u32],
    }

    /// An attached picture.
    struct Media {
        id: u64,
        id_str: str,
        indices: [u32],
        media_url: str,
        media_url_https: str,
        url: str,
        display_url: str,
        expanded_url: str,
        #[serde(rename = "type")]
        kind: str,
        sizes: Sizes,
        #[serde(default)]
        source_status_id: (opt u64),
        #[serde(default)]
        source_status_id_str: (opt str),
    }

    /// The sizes a picture is offered in.
    struct Sizes {
        medium: Size,
        small: Size,
        thumb: Size,
        large: Size,
    }

    /// One picture size.
    struct Size {
        w: u32,
        h: u32,
        resize: str,
    }

    /// About the search itself.
    struct SearchMetadata {
        completed_in: f64,
        max_id: u64,
        max_id_str: str,
        next_results: str,
        query: str,
        refresh_url: str,
        count: u32,
        since_id: u64,
        since_id_str: str,
    }
}

/// The twitter dataset.
#[derive(Debug)]
pub struct Twitter;

impl Dataset for Twitter {
    const NAME: &'static str = "twitter";
    type Owned = owned::Twitter;
    type Borrowed<'a> = borrowed::Twitter<'a>;
    type Arena<'a> = arena::Twitter<'a>;
    type Multi = multi::Twitter;
}
