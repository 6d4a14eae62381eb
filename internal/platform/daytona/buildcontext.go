package daytona

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/md5" //nolint:gosec // Daytona's SDKs key build contexts by MD5; it names content, it does not protect it
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/sbxhq/terraform-provider-sbx/internal/buildctx"
)

// contextPart is the files one COPY or ADD source reads, uploaded as one
// tar keyed by its hash, as Daytona's SDKs upload each local file or
// directory of an Image (libs/sdk-go/pkg/daytona/object_storage.go).
type contextPart struct {
	src   string
	hash  string
	files []buildctx.File
	// root: the source is the whole context ("."), whose hash starts
	// with the root's own path, as the SDKs walk it.
	root bool
}

// contextParts selects, for every context source of the Dockerfile, the
// files it reads from contextDir (honouring .dockerignore) and hashes them.
// Sources that select the same files share a part.
func contextParts(contextDir, dockerfile string) ([]contextPart, error) {
	srcs, err := contextSources(dockerfile)
	if err != nil {
		return nil, err
	}
	var parts []contextPart
	seen := map[string]bool{}
	for _, s := range srcs {
		if contextDir == "" {
			return nil, fmt.Errorf("the Dockerfile reads files (line %d: %s %s) but context_dir is not set", s.line, s.inst, s.src)
		}
		files, err := buildctx.Select(contextDir, s.src)
		if err != nil {
			return nil, fmt.Errorf("dockerfile line %d (%s %s): %w", s.line, s.inst, s.src, err)
		}
		walkOrder(files)
		clean := path.Clean(strings.TrimPrefix(s.src, "./"))
		part := contextPart{src: s.src, files: files, root: clean == "." || clean == ""}
		if part.hash, err = partHash(part); err != nil {
			return nil, fmt.Errorf("dockerfile line %d (%s %s): %w", s.line, s.inst, s.src, err)
		}
		if !seen[part.hash] {
			seen[part.hash] = true
			parts = append(parts, part)
		}
	}
	return parts, nil
}

// walkOrder sorts files as a directory walk visits them: a directory's
// entries by name, each directory followed by what it holds.
func walkOrder(files []buildctx.File) {
	key := func(rel string) string { return strings.ReplaceAll(rel, "/", "\x00") }
	sort.SliceStable(files, func(i, j int) bool { return key(files[i].Rel) < key(files[j].Rel) })
}

// partHash is the hash Daytona's SDKs give a context part: MD5 over, for
// every entry in walk order, its path in the archive and a newline, then a
// file's content.
func partHash(part contextPart) (string, error) {
	h := md5.New() //nolint:gosec // see the import
	if part.root {
		_, _ = io.WriteString(h, ".\n")
	}
	for _, f := range part.files {
		_, _ = io.WriteString(h, f.Rel+"\n")
		if err := f.WriteContent(h); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// partTar writes a part as an uncompressed tar, each entry under its path
// in the context, as the SDKs write context.tar.
func partTar(w io.Writer, part contextPart) error {
	tw := tar.NewWriter(w)
	for _, f := range part.files {
		link := ""
		if f.Info.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(f.Abs)
			if err != nil {
				return err
			}
			link = target
		}
		hdr, err := tar.FileInfoHeader(f.Info, link)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Rel, err)
		}
		hdr.Name = f.Rel
		if f.Info.IsDir() {
			hdr.Name += "/"
		}
		hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "", ""
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if f.Info.Mode().IsRegular() {
			if err := f.WriteContent(tw); err != nil {
				return err
			}
		}
	}
	return tw.Close()
}

// uploadContext pushes every part Daytona's object storage does not hold
// yet to {organization}/{hash}/context.tar, with the short-lived
// credentials of GET /object-storage/push-access, and returns the hashes
// in the order of the parts (CreateBuildInfo.contextHashes).
func (p *Platform) uploadContext(ctx context.Context, parts []contextPart) ([]string, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	var acc storageAccess
	if _, err := p.do(ctx, http.MethodGet, "/object-storage/push-access", nil, nil, &acc); err != nil {
		return nil, fmt.Errorf("asking where to upload the build context: %w", err)
	}
	client := p.s3Client(acc)
	bucket := acc.Bucket
	if bucket == "" {
		bucket = "daytona-volume-builds" // the SDKs' default
	}
	hashes := make([]string, 0, len(parts))
	for _, part := range parts {
		hashes = append(hashes, part.hash)
		prefix := acc.OrganizationID + "/" + part.hash + "/"
		list, err := client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(bucket), Prefix: aws.String(prefix), MaxKeys: aws.Int32(1)})
		if err != nil {
			return nil, fmt.Errorf("checking the build context storage for the files of %s: %w", part.src, err)
		}
		if len(list.Contents) > 0 {
			continue
		}
		var buf bytes.Buffer
		if err := partTar(&buf, part); err != nil {
			return nil, fmt.Errorf("packing the files of %s: %w", part.src, err)
		}
		_, err = client.PutObject(ctx, &s3.PutObjectInput{
			Bucket: aws.String(bucket), Key: aws.String(prefix + "context.tar"),
			Body: bytes.NewReader(buf.Bytes()), ContentLength: aws.Int64(int64(buf.Len())),
			ContentType: aws.String("application/x-tar"),
		})
		if err != nil {
			return nil, fmt.Errorf("uploading the files of %s: %w", part.src, err)
		}
	}
	return hashes, nil
}

// s3Client is an S3 client for the push credentials, path-style as the
// SDKs make it, through the platform's plain HTTP client (never the API
// key).
func (p *Platform) s3Client(acc storageAccess) *s3.Client {
	region := "us-east-1"
	if strings.Contains(acc.StorageURL, "amazonaws.com") {
		parts := strings.Split(acc.StorageURL, ".")
		for i, part := range parts {
			if part == "s3" && i+1 < len(parts) {
				region = parts[i+1]
				break
			}
		}
	}
	creds := aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{AccessKeyID: acc.AccessKey, SecretAccessKey: acc.Secret, SessionToken: acc.SessionToken, Source: "daytona push-access"}, nil
	})
	return s3.New(s3.Options{
		Region:       region,
		Credentials:  creds,
		BaseEndpoint: aws.String(acc.StorageURL),
		UsePathStyle: true,
		HTTPClient:   p.plain,
		AppID:        "terraform-provider-sbx",
	})
}
