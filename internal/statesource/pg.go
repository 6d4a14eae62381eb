package statesource

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
)

// Terraform's pg backend (internal/backend/remote-state/pg in Terraform's
// source): the schema defaults to terraform_remote_state, its table states
// has columns id, name (unique, the workspace; "default" is the default
// workspace) and data (the state JSON, text). conn_str and schema_name
// also come from PG_CONN_STR and PG_SCHEMA_NAME. Its locks are session
// advisory locks taken by terraform; a plain SELECT takes none and waits
// for none.
const (
	pgDefaultSchema = "terraform_remote_state"
	pgStatesTable   = "states"
	pgConnectWait   = 30 * time.Second
)

type pgSource struct {
	cfg    *pgx.ConnConfig
	schema string
}

func newPG(settings map[string]string, getenv func(string) string) (Source, error) {
	conn, ok := settings["conn_str"]
	if !ok {
		conn = getenv("PG_CONN_STR")
	}
	schema, ok := settings["schema_name"]
	if !ok {
		schema = getenv("PG_SCHEMA_NAME")
	}
	if schema == "" {
		schema = pgDefaultSchema
	}
	if conn == "" {
		return nil, errors.New("the pg backend needs a connection string: --backend-config conn_str=postgres://… or PG_CONN_STR")
	}
	// pgx redacts the password from its own parse errors.
	cfg, err := pgx.ParseConfig(conn)
	if err != nil {
		return nil, fmt.Errorf("the pg backend's connection string: %w", err)
	}
	return &pgSource{cfg: cfg, schema: schema}, nil
}

// Describe names the server, database and schema; never the password.
func (s *pgSource) Describe() string {
	return fmt.Sprintf("pg backend %s:%d/%s schema %s", s.cfg.Host, s.cfg.Port, s.cfg.Database, s.schema)
}

func (s *pgSource) Each(ctx context.Context, fn func(string, io.Reader) error) error {
	cctx, cancel := context.WithTimeout(ctx, pgConnectWait)
	conn, err := pgx.ConnectConfig(cctx, s.cfg)
	cancel()
	if err != nil {
		return fmt.Errorf("%s: cannot connect: %w", s.Describe(), err)
	}
	defer func() { _ = conn.Close(context.Background()) }() // read-only: nothing to lose on close

	// One read-only transaction: no statement of it can write, and every
	// workspace is read from the same snapshot.
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return fmt.Errorf("%s: %w", s.Describe(), err)
	}
	defer func() { _ = tx.Rollback(context.Background()) }() // nothing was written

	var exists bool
	err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2)`,
		s.schema, pgStatesTable).Scan(&exists)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Describe(), err)
	}
	if !exists {
		return fmt.Errorf("%s: no table %s.%s: is the schema name right (--backend-config schema_name, PG_SCHEMA_NAME)?",
			s.Describe(), s.schema, pgStatesTable)
	}
	table := pgx.Identifier{s.schema, pgStatesTable}.Sanitize()
	rows, err := tx.Query(ctx, `SELECT name, data FROM `+table+` ORDER BY name <> 'default', name`)
	if err != nil {
		return fmt.Errorf("%s: %w", s.Describe(), err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
		// RawValues are valid until the next row: one state is held at a
		// time, never the backend.
		raw := rows.RawValues()
		name := string(raw[0])
		if raw[0] == nil {
			return &WorkspaceError{Source: s.Describe(), Workspace: "", Err: errors.New("a row of the states table has no name")}
		}
		if raw[1] == nil {
			return &WorkspaceError{Source: s.Describe(), Workspace: name, Err: errors.New("its data is null, want a state")}
		}
		if err := fn(name, bytes.NewReader(raw[1])); err != nil {
			return &WorkspaceError{Source: s.Describe(), Workspace: name, Err: err}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", s.Describe(), err)
	}
	if n == 0 {
		return fmt.Errorf("%s: the states table holds no workspace", s.Describe())
	}
	return nil
}
