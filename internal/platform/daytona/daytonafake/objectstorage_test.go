package daytonafake

import (
	"archive/tar"
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

type pushAccess struct {
	AccessKey, Secret, SessionToken, StorageURL, OrganizationID, Bucket string
}

func (a *fakeAPI) pushAccess() pushAccess {
	a.t.Helper()
	var p pushAccess
	a.must(http.StatusOK, "GET", "/object-storage/push-access", nil).decode(a.t, &p)
	return p
}

// s3Client is configured as Daytona's Go SDK configures its object storage
// client (libs/sdk-go/pkg/daytona/object_storage.go NewObjectStorage).
func s3Client(p pushAccess, secret string) *s3.Client {
	return s3.New(s3.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider(p.AccessKey, secret, p.SessionToken),
		BaseEndpoint: aws.String(p.StorageURL),
		UsePathStyle: true,
	})
}

func tarOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// upload puts a build context the way the SDK's Upload does: list the
// prefix, put {org}/{hash}/context.tar when nothing is there.
func upload(t *testing.T, client *s3.Client, p pushAccess, hash string, files map[string]string) error {
	t.Helper()
	ctx := context.Background()
	prefix := p.OrganizationID + "/" + hash + "/"
	list, err := client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(p.Bucket), Prefix: aws.String(prefix), MaxKeys: aws.Int32(1)})
	if err != nil {
		return err
	}
	if len(list.Contents) > 0 {
		return nil
	}
	_, err = client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(p.Bucket), Key: aws.String(prefix + "context.tar"),
		Body: bytes.NewReader(tarOf(t, files))})
	return err
}

// The SDK's own S3 client uploads a build context with the issued
// credentials; the fake checks the signature and keeps the unpacked files.
func TestObjectStorageUpload(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	p := api.pushAccess()
	if !strings.HasPrefix(p.StorageURL, srv.URL()) || p.OrganizationID != srv.OrganizationID() || p.Bucket != s3Bucket {
		t.Fatalf("push access %+v", p)
	}
	client := s3Client(p, p.Secret)
	files := map[string]string{"app/main.py": "print('hi')\n", "app/req.txt": "flask\n"}
	if err := upload(t, client, p, "abc123", files); err != nil {
		t.Fatalf("upload: %v", err)
	}
	if got := srv.ContextFiles("abc123"); len(got) != 2 || got["app/main.py"] != files["app/main.py"] {
		t.Fatalf("ContextFiles = %v", got)
	}
	// A second upload of the same hash finds it listed and skips the put.
	if err := upload(t, client, p, "abc123", files); err != nil {
		t.Fatalf("second upload: %v", err)
	}
	if srv.Uploads() != 1 {
		t.Fatalf("uploads = %d, want 1", srv.Uploads())
	}
	api.checkClean()
}

// Unsigned requests, unknown keys, wrong secrets and keys outside the
// organization's prefix are refused with S3's 403 errors.
func TestObjectStorageRefusals(t *testing.T) {
	srv, api, _ := newTest(t, Options{})
	p := api.pushAccess()
	ctx := context.Background()
	put := func(c *s3.Client, key string) error {
		_, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(p.Bucket), Key: aws.String(key), Body: bytes.NewReader([]byte("x"))})
		return err
	}
	unknown := p
	unknown.AccessKey = "ASIAUNKNOWN"
	cases := []struct {
		name string
		do   func() error
		code string
	}{
		{"wrong secret", func() error { return put(s3Client(p, "not-the-secret"), p.OrganizationID+"/h/context.tar") }, "SignatureDoesNotMatch"},
		{"unknown access key", func() error { return put(s3Client(unknown, p.Secret), p.OrganizationID+"/h/context.tar") }, "InvalidAccessKeyId"},
		{"other organization's prefix", func() error { return put(s3Client(p, p.Secret), "someone-else/h/context.tar") }, "AccessDenied"},
		{"unsigned", func() error {
			req, err := http.NewRequest(http.MethodPut, p.StorageURL+"/"+p.Bucket+"/"+p.OrganizationID+"/h/context.tar", strings.NewReader("x"))
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			defer func() { _ = resp.Body.Close() }()
			var buf bytes.Buffer
			_, _ = buf.ReadFrom(resp.Body)
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("unsigned put: %d", resp.StatusCode)
			}
			return &textError{buf.String()}
		}, "AccessDenied"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do()
			if err == nil || !strings.Contains(err.Error(), tc.code) {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
		})
	}
	if srv.Uploads() != 0 {
		t.Fatalf("uploads = %d, want none", srv.Uploads())
	}
}

type textError struct{ s string }

func (e *textError) Error() string { return e.s }
