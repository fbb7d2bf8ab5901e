//! Files the database keeps gzipped (replays, classic logs), served as they are to
//! clients that take gzip (browsers inflate them) and inflated for those that do not.

use axum::http::{header, HeaderMap, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::error::AppError;

/// Whether the request's `Accept-Encoding` takes gzip: named (`gzip` or `x-gzip`, any
/// case) with a weight above 0, or else `*` with a weight above 0.
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    let (mut named, mut any) = (None, None);
    for entry in headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
    {
        let mut parts = entry.split(';');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let weight = parts
            .filter_map(|p| {
                let (k, v) = p.split_once('=')?;
                k.trim()
                    .eq_ignore_ascii_case("q")
                    .then(|| v.trim().parse::<f32>().ok())?
            })
            .next()
            .unwrap_or(1.0);
        match name.as_str() {
            "gzip" | "x-gzip" => named = Some(weight > 0.0),
            "*" => any = Some(weight > 0.0),
            _ => {}
        }
    }
    named.or(any).unwrap_or(false)
}

/// `gz` (a gzip stream) with `headers`, gzipped or inflated as the client takes it.
pub fn respond(
    request: &HeaderMap,
    gz: Vec<u8>,
    headers: &[(HeaderName, String)],
) -> Result<Response, AppError> {
    let gzip = accepts_gzip(request);
    let body = if gzip {
        gz
    } else {
        crate::compress::gunzip(&gz).map_err(|e| {
            AppError::Internal(anyhow::anyhow!("a stored file does not unpack: {e}"))
        })?
    };
    let mut response = body.into_response();
    let out = response.headers_mut();
    for (name, value) in headers {
        if let Ok(v) = HeaderValue::from_str(value) {
            out.insert(name.clone(), v);
        }
    }
    if gzip {
        out.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    out.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        h
    }

    #[test]
    fn gzip_is_taken_as_browsers_and_tools_ask() {
        assert!(accepts_gzip(&with("gzip, deflate, br")));
        assert!(accepts_gzip(&with("deflate, gzip;q=0.5")));
        assert!(accepts_gzip(&with("*")));
        assert!(!accepts_gzip(&with("identity")));
        assert!(!accepts_gzip(&with("gzip;q=0")));
        assert!(!accepts_gzip(&with("gzip;q=0., *")), "named before any");
        assert!(accepts_gzip(&with("GZIP;Q=1")));
        assert!(accepts_gzip(&with("x-gzip")));
        assert!(!accepts_gzip(&with("x-gzip-ish")));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }
}
