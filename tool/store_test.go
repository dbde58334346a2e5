package tool_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

type closer struct{ closed int }

func (c *closer) Close() error { c.closed++; return nil }

func TestStoreBuildsOncePerKey(t *testing.T) {
	s := tool.NewStore()
	builds := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, shared, err := s.Get("root", func() (any, error) {
				mu.Lock()
				builds++
				mu.Unlock()
				return &closer{}, nil
			})
			assert.NoError(t, err)
			assert.True(t, shared)
			got[i] = v
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, builds)
	for _, v := range got {
		assert.Same(t, got[0], v)
	}
	v, ok := s.Lookup("root")
	assert.True(t, ok)
	assert.Same(t, got[0], v)
	_, ok = s.Lookup("other")
	assert.False(t, ok)
}

func TestStoreKeepsNoFailedBuild(t *testing.T) {
	s := tool.NewStore()
	_, _, err := s.Get("k", func() (any, error) { return nil, errors.New("boom") })
	require.Error(t, err)
	_, ok := s.Lookup("k")
	assert.False(t, ok)
}

func TestStoreCloseClosesValuesAndRefusesLaterGets(t *testing.T) {
	s := tool.NewStore()
	c := &closer{}
	_, _, err := s.Get("k", func() (any, error) { return c, nil })
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.Equal(t, 1, c.closed)
	_, _, err = s.Get("k", func() (any, error) { return &closer{}, nil })
	assert.ErrorIs(t, err, tool.ErrStoreClosed)
}

func TestNilStoreCachesNothing(t *testing.T) {
	var s *tool.Store
	builds := 0
	for i := 0; i < 2; i++ {
		_, shared, err := s.Get("k", func() (any, error) { builds++; return &closer{}, nil })
		require.NoError(t, err)
		assert.False(t, shared)
	}
	assert.Equal(t, 2, builds)
	_, ok := s.Lookup("k")
	assert.False(t, ok)
	assert.NoError(t, s.Close())
}
