package shell

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/delivery/wsindex"
	"github.com/cmdbridge/cmdbridge/tool"
)

// indexKey is the key of a workspace root's warm index in the host's tool.Store.
func indexKey(root string) string { return "delivery/wsindex:" + root }

// ReadWorkspace opens the call's workspace for a tool that only reads, like
// ops.OpenWorkspace (§1.1, then the configuration sections keys checked): through the
// host's warm index of the workspace root when the host keeps a store (a long-lived host;
// the index is built on first use and lives as long as the store), from the disk
// otherwise. The root is resolved on every call, so DELIVERY_WORKSPACE and the checkout
// are always the call's own. The workspace it returns must not be edited.
func ReadWorkspace(ctx context.Context, env *tool.Env, keys ...string) (*delivery.Workspace, error) {
	look := gitrepo.LookupEnv(lookup(env))
	if env.Store == nil {
		return ops.OpenWorkspace(ctx, env.Dir, look, keys...)
	}
	root, checkout, err := delivery.FindRoot(ctx, env.Dir, look)
	if err != nil {
		return nil, err
	}
	v, _, err := env.Store.Get(indexKey(root), func() (any, error) { return wsindex.New(root, wsindex.Options{}), nil })
	if err != nil {
		// A closed store (the host is stopping): answer from the disk.
		return ops.OpenWorkspace(ctx, env.Dir, look, keys...)
	}
	ws, err := v.(*wsindex.Index).Workspace(checkout)
	if err != nil {
		return nil, err
	}
	if len(keys) > 0 {
		if err := ws.Config.Check(keys...); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

// Wrote tells the host's index of root, if there is one, that the call wrote there: it
// re-validates its entries now, re-reading only what changed, so the next read is warm.
// Reads would see the write without it (every read validates); this moves the re-read
// from the next reader to the writer.
func Wrote(env *tool.Env, root string) {
	if v, ok := env.Store.Lookup(indexKey(root)); ok {
		v.(*wsindex.Index).Refresh()
	}
}

// WriteWorkspace opens the call's workspace for a writer, like ops.OpenWorkspace: when
// the host keeps a store, through its warm index as ReadWorkspace does, with a private
// copy of the configuration (a writer may change and save it) and the index's writer
// Source (wsindex.Index.WriterSource: the WUs and initiatives it reads are private
// copies); from the disk otherwise.
func WriteWorkspace(ctx context.Context, env *tool.Env, keys ...string) (*delivery.Workspace, error) {
	ws, err := ReadWorkspace(ctx, env, keys...)
	if err != nil || env.Store == nil {
		return ws, err
	}
	x := IndexOf(env.Store, ws.Root)
	if ws.Source == nil || x == nil {
		return ws, nil // read from the disk (a closed store): private already
	}
	ws.Doc = delivery.CloneNode(ws.Doc)
	ws.Config = delivery.ParseConfig(ws.Doc)
	ws.Source = x.WriterSource(ws)
	return ws, nil
}

// CheckedIndex puts into store, for root, an index that verifies every value it
// replaces (wsindex.Options.Check), for tests that audit what tools do to it.
func CheckedIndex(store *tool.Store, root string) *wsindex.Index {
	v, _, _ := store.Get(indexKey(root), func() (any, error) { return wsindex.New(root, wsindex.Options{Check: true}), nil })
	return v.(*wsindex.Index)
}

// IndexOf is the warm index a host's store keeps of root, or nil when it has none yet
// (for tests that check what tools did to it).
func IndexOf(store *tool.Store, root string) *wsindex.Index {
	if store == nil {
		return nil
	}
	v, ok := store.Lookup(indexKey(root))
	if !ok {
		return nil
	}
	x, _ := v.(*wsindex.Index)
	return x
}
