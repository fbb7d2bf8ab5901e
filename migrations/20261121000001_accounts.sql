-- Accounts, their browser sessions and their API tokens.

create table users (
    id bigint generated always as identity primary key,
    -- shown everywhere; unique whatever the case (see users_name_key)
    name text not null check (name ~ '^[A-Za-z0-9_-]{2,32}$'),
    -- argon2id, PHC string format
    password_hash text not null,
    is_admin boolean not null default false,
    created_at timestamptz not null default now()
);
create unique index users_name_key on users (lower(name));

create table sessions (
    -- sha256 of the cookie value: a copy of this table opens no session
    token_hash bytea primary key check (length(token_hash) = 32),
    user_id bigint not null references users (id) on delete cascade,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null
);
create index sessions_user_id on sessions (user_id);

create table api_tokens (
    id bigint generated always as identity primary key,
    user_id bigint not null references users (id) on delete cascade,
    name text not null check (length(name) between 1 and 64),
    -- sha256 of the token, which is shown once when it is made
    token_hash bytea not null unique check (length(token_hash) = 32),
    created_at timestamptz not null default now(),
    last_used_at timestamptz
);
create index api_tokens_user_id on api_tokens (user_id);
